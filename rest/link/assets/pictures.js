/*
 * Pictures of documents taken with a phone, checked before they are sent:
 * too dark or too blurred to read is measured, not guessed, as the server
 * measures the pictures that arrive without this check
 * (domain.MeasurePicture): the picture is drawn at PICTURE_SIDE pixels on
 * its longer side, made grey (Rec. 601 luma, 0-255), and
 *   brightness = the mean grey level,
 *   sharpness  = the variance of its Laplacian (4 times a pixel minus its
 *                four neighbours): printed text has sharp edges, a blurred
 *                picture none.
 * The thresholds are the server's, measured on the document corpus's
 * photos, sharp, blurred and darkened (docs/link.md has the numbers).
 *
 *   PaylinePictures.measure(file) -> Promise<{brightness, sharpness, tooDark, blurred}>
 *   PaylinePictures.shrink(file)  -> Promise<File> (at most MAX_SIDE pixels, as a JPEG)
 */
(function () {
  'use strict';

  var PICTURE_SIDE = 640, MIN_BRIGHTNESS = 80, MIN_SHARPNESS = 200;
  // A phone's photo is sent at most this many pixels on its longer side:
  // the reader reads it as well, and it goes up in a fraction of the time.
  var MAX_SIDE = 2000;

  function bitmap(file) {
    if (window.createImageBitmap) return createImageBitmap(file);
    return new Promise(function (resolve, reject) {
      var img = new Image();
      var url = URL.createObjectURL(file);
      img.onload = function () { URL.revokeObjectURL(url); resolve(img); };
      img.onerror = function () { URL.revokeObjectURL(url); reject(new Error('not a picture')); };
      img.src = url;
    });
  }

  function canvasOf(bmp, side) {
    var w = bmp.width, h = bmp.height, scale = Math.min(1, side / Math.max(w, h));
    var c = document.createElement('canvas');
    c.width = Math.max(1, Math.round(w * scale));
    c.height = Math.max(1, Math.round(h * scale));
    var ctx = c.getContext('2d');
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(bmp, 0, 0, c.width, c.height);
    return c;
  }

  function measure(file) {
    return bitmap(file).then(function (bmp) {
      var c = canvasOf(bmp, PICTURE_SIDE);
      var w = c.width, h = c.height;
      var px = c.getContext('2d').getImageData(0, 0, w, h).data;
      var grey = new Float64Array(w * h), sum = 0;
      for (var i = 0; i < w * h; i++) {
        grey[i] = 0.299 * px[4 * i] + 0.587 * px[4 * i + 1] + 0.114 * px[4 * i + 2];
        sum += grey[i];
      }
      var lsum = 0, lsq = 0, n = 0;
      for (var y = 1; y < h - 1; y++) {
        for (var x = 1; x < w - 1; x++) {
          var j = y * w + x;
          var l = 4 * grey[j] - grey[j - 1] - grey[j + 1] - grey[j - w] - grey[j + w];
          lsum += l; lsq += l * l; n++;
        }
      }
      var mean = n ? lsum / n : 0;
      var q = { brightness: sum / (w * h), sharpness: n ? lsq / n - mean * mean : 0 };
      q.tooDark = q.brightness < MIN_BRIGHTNESS;
      q.blurred = !q.tooDark && q.sharpness < MIN_SHARPNESS; // judged on a picture bright enough to show edges
      return q;
    });
  }

  // shrink sends a large photo at MAX_SIDE pixels; a smaller picture goes
  // as it is, so nothing is compressed twice that need not be.
  function shrink(file) {
    return bitmap(file).then(function (bmp) {
      if (Math.max(bmp.width, bmp.height) <= MAX_SIDE) return file;
      var c = canvasOf(bmp, MAX_SIDE);
      return new Promise(function (resolve) {
        c.toBlob(function (blob) {
          resolve(blob ? new File([blob], file.name.replace(/\.[^.]*$/, '') + '.jpg', { type: 'image/jpeg' }) : file);
        }, 'image/jpeg', 0.92);
      });
    });
  }

  window.PaylinePictures = { measure: measure, shrink: shrink, MIN_BRIGHTNESS: MIN_BRIGHTNESS, MIN_SHARPNESS: MIN_SHARPNESS };
})();
