/*
 * Link's upload screen, for a person who cannot sign in: documents taken
 * page by page with the phone's camera or chosen as files, each picture
 * shown and measured (pictures.js) before anything is sent. Part of the
 * modal (modal.js's parts).
 */
(function () {
  'use strict';

  var parts = window.PaylineModal, state = parts.state, $ = parts.$, h = parts.h, api = parts.api, screen = parts.screen;
  var showMessage = parts.showMessage, userMessage = parts.userMessage, fail = parts.fail, emit = parts.emit;
  var transition = parts.transition, exit = parts.exit, checkIcon = parts.checkIcon;

  // --- document uploads ------------------------------------------------------

  var MAX_FILES = 10, MAX_BYTES = 10 * 1024 * 1024;

  // renderUpload takes paystubs or W-2s from a user who cannot sign in.
  // On a phone the camera takes each page of a document (a paystub of two
  // pages is one document of two pictures, sent as one); any device may
  // choose files, each file a document (a PDF holds its own pages). Each
  // picture is shown before it is sent, and one measured too dark or
  // blurred (pictures.js) is asked again. Sizes and counts are checked
  // here for a quick answer; types are checked by the server, by content.
  function renderUpload() {
    var kinds = [['paystub', 'Paystubs'], ['w2', 'W-2 forms']].map(function (k, i) {
      return h('label', { 'class': 'choice' }, [
        h('input', { type: 'radio', name: 'doc-type', id: 'doc-type-' + k[0], value: k[0], checked: i === 0 ? 'checked' : null }),
        document.createTextNode(k[1])]);
    });
    // docs: [{pages: [{file, url, quality, kept}], pdf}]; current is the
    // document the camera's next picture joins (null: a new one).
    var docs = [], current = null, retake = null, previewed = false, pending = 0, previewTimer = null;
    // seq numbers the previews: an answer about documents since changed is
    // dropped, and its reading stopped (reading costs the server seconds).
    var seq = 0, reading = null;
    // read keeps what was read of each set of documents (by their pages),
    // so undoing a change (a page moved back, a bad picture removed) shows
    // its reading again without reading it again.
    var read = {}, pageIDs = 0;
    function key() { return docType() + ':' + docs.map(function (d) { return d.pages.map(function (p) { return p.id; }).join(','); }).join('|'); }
    var camera = h('input', { id: 'upload-camera', type: 'file', accept: 'image/*,application/pdf', capture: 'environment', multiple: 'multiple' });
    var input = h('input', { id: 'upload-files', type: 'file', multiple: 'multiple', accept: 'application/pdf,image/png,image/jpeg,.pdf,.png,.jpg,.jpeg' });
    var cameraPick = h('label', { 'class': 'pick secondary', id: 'upload-camera-label' }, [
      h('span', { id: 'upload-camera-text', text: 'Take a picture of a page' }), camera]);
    var filesPick = h('label', { 'class': 'pick secondary', id: 'upload-files-label' }, [h('span', { text: 'Choose files (PDF or pictures)' }), input]);
    var newDoc = h('button', { id: 'upload-new-doc', 'class': 'secondary', text: 'Start another document', hidden: 'hidden' });
    var list = h('ul', { 'class': 'files', id: 'upload-list' });
    var holder = h('div', { 'class': 'docs', id: 'upload-docs' });
    var submit = h('button', { id: 'upload-submit', 'class': 'primary', text: 'Send documents', disabled: 'disabled' });
    function docType() { return document.querySelector('input[name="doc-type"]:checked').value; }
    function isPDF(f) { return f.type === 'application/pdf' || /\.pdf$/i.test(f.name); }
    function parts() { return docs.reduce(function (n, d) { return n + d.pages.length; }, 0); }
    function unresolved() {
      return docs.some(function (d) { return d.pages.some(function (p) { return p.quality && (p.quality.tooDark || p.quality.blurred) && !p.kept; }); });
    }
    function chosen() {
      if (!docs.length) return showMessage('Choose at least one file, or take a picture.');
      if (parts() > MAX_FILES) return showMessage('You can send up to 10 files and pages at a time.');
      var form = new FormData();
      form.append('document_type', docType());
      docs.forEach(function (d) {
        d.pages.forEach(function (p, j) { form.append(j === 0 ? 'files' : 'pages', p.file, p.file.name); });
      });
      return form;
    }
    // add takes files from either input: pictures from the camera join
    // the current document (or replace the page asked again), everything
    // else is a document of its own. A file too large is refused at once.
    function add(files, fromCamera) {
      showMessage('');
      var big = files.filter(function (f) { return f.size > MAX_BYTES; })[0];
      if (big) return showMessage(big.name + ' is ' + size(big.size) + '. Each file can be at most 10 MB.');
      files.forEach(function (f) {
        var page = { id: ++pageIDs, file: f, url: null, quality: null, kept: false };
        if (isPDF(f)) {
          docs.push({ pages: [page], pdf: true });
          return;
        }
        if (retake) {
          var old = docs[retake.doc].pages[retake.page];
          if (old.url) URL.revokeObjectURL(old.url);
          docs[retake.doc].pages[retake.page] = page;
          retake = null;
        } else if (fromCamera && current !== null && docs[current]) {
          docs[current].pages.push(page);
        } else {
          docs.push({ pages: [page], pdf: false });
          if (fromCamera) current = docs.length - 1;
        }
        pending++;
        window.PaylinePictures.shrink(f).then(function (small) {
          page.file = small;
          page.url = URL.createObjectURL(small);
          return window.PaylinePictures.measure(small);
        }).then(function (q) { page.quality = q; }, function () { page.quality = null; }).then(function () {
          pending--;
          changed();
        });
      });
      changed();
    }
    function changed() {
      previewed = false;
      seq++;
      if (reading) reading.abort();
      reading = null;
      draw();
      clearTimeout(previewTimer);
      list.innerHTML = '';
      // Nothing is read while a picture waits to be taken again.
      if (pending || !docs.length || unresolved()) return;
      if (read[key()]) return showRead(read[key()]);
      previewTimer = setTimeout(preview, 200);
    }
    function showRead(files) {
      list.innerHTML = '';
      files.forEach(function (f, i) {
        var what = f.read ? [f.employer_name, f.pay_date ? 'paid ' + payDay(f.pay_date) : '', f.net_pay ? 'net pay ' + f.net_pay : ''].filter(Boolean).join(' · ') : '';
        list.appendChild(h('li', { 'class': f.read ? 'read' : 'unread', id: 'upload-file-' + i }, [
          h('strong', { text: (f.read ? '✓ ' : '✗ ') + f.name }),
          what ? h('span', { 'class': 'what', text: what }) : null,
          h('span', { 'class': 'note', text: f.note })]));
      });
      previewed = true;
      draw();
    }
    function move(d, j, by) {
      var pages = docs[d].pages, k = j + by;
      if (k < 0 || k >= pages.length) return;
      var t = pages[j]; pages[j] = pages[k]; pages[k] = t;
      changed();
    }
    function remove(d, j) {
      var p = docs[d].pages.splice(j, 1)[0];
      if (p.url) URL.revokeObjectURL(p.url);
      if (!docs[d].pages.length) {
        docs.splice(d, 1);
        if (current === d) current = null;
        else if (current !== null && current > d) current--;
      }
      changed();
    }
    function warning(q) {
      if (q.tooDark) return 'This picture looks too dark to read. Take it again in better light.';
      return 'This picture looks blurred. Hold your phone still, let it focus, and take it again.';
    }
    // draw shows every document and its pages, each picture as it will be
    // sent, with what can be done to it.
    function draw() {
      holder.innerHTML = '';
      docs.forEach(function (d, i) {
        var pages = h('ol', { 'class': 'pages' }, d.pages.map(function (p, j) {
          var label = d.pdf ? p.file.name : 'Page ' + (j + 1);
          var tools = [];
          if (!d.pdf && d.pages.length > 1) {
            tools.push(h('button', { 'class': 'tool', 'aria-label': 'Move page ' + (j + 1) + ' up', text: '↑', disabled: j === 0 ? 'disabled' : null, onclick: function () { move(i, j, -1); } }));
            tools.push(h('button', { 'class': 'tool', 'aria-label': 'Move page ' + (j + 1) + ' down', text: '↓', disabled: j === d.pages.length - 1 ? 'disabled' : null, onclick: function () { move(i, j, 1); } }));
          }
          tools.push(h('button', { 'class': 'tool remove', id: 'upload-remove-' + i + '-' + j, 'aria-label': 'Remove ' + label, text: 'Remove', onclick: function () { remove(i, j); } }));
          var q = p.quality;
          var ask = q && (q.tooDark || q.blurred) && !p.kept ? h('div', { 'class': 'warn', id: 'upload-warning-' + i + '-' + j, role: 'alert' }, [
            h('p', { text: warning(q) }),
            h('div', { 'class': 'row' }, [
              h('button', { 'class': 'primary', id: 'upload-retake-' + i + '-' + j, text: 'Take it again', onclick: function () { retake = { doc: i, page: j }; camera.click(); } }),
              h('button', { 'class': 'secondary', id: 'upload-keep-' + i + '-' + j, text: 'Keep it', onclick: function () { p.kept = true; changed(); } })])]) : null;
          return h('li', { 'class': 'page', id: 'upload-page-' + i + '-' + j }, [
            p.url ? h('img', { 'class': 'thumb', src: p.url, alt: 'Picture of ' + label.toLowerCase() + ' of document ' + (i + 1) }) : h('span', { 'class': 'thumb doc-icon', 'aria-hidden': 'true', text: d.pdf ? 'PDF' : '…' }),
            h('div', { 'class': 'page-main' }, [h('span', { 'class': 'page-name', text: label }), h('div', { 'class': 'tools' }, tools)]),
            ask]);
        }));
        holder.appendChild(h('section', { 'class': 'doc', id: 'upload-doc-' + i, 'aria-label': 'Document ' + (i + 1) }, [
          h('h2', { text: 'Document ' + (i + 1) + (d.pdf ? '' : ' · ' + d.pages.length + (d.pages.length === 1 ? ' page' : ' pages')) }), pages]));
      });
      var building = current !== null && docs[current];
      $('upload-camera-text').textContent = building ? 'Take a picture of the next page' : 'Take a picture of a page';
      newDoc.hidden = !building;
      var n = docs.length;
      submit.textContent = n ? 'Send ' + n + (n === 1 ? ' document' : ' documents') : 'Send documents';
      submit.disabled = !previewed || pending > 0 || unresolved() || !n;
    }
    // preview reads the chosen documents without sending them to anyone
    // and shows, before the user submits, which were read and which not.
    function preview() {
      showMessage('');
      list.innerHTML = '';
      var form = chosen();
      if (!form) return;
      list.appendChild(h('li', { text: 'Reading your documents…' }));
      var mine = seq, k = key();
      reading = window.AbortController ? new AbortController() : null;
      api('POST', 'uploads/preview', form, reading && reading.signal).then(function (res) {
        if (mine !== seq) return;
        read[k] = res.files;
        showRead(res.files);
      }, function (err) {
        if (mine !== seq) return;
        list.innerHTML = '';
        showMessage(userMessage(fail(err)));
        list.appendChild(h('li', {}, [h('button', { id: 'upload-read-again', 'class': 'secondary', text: 'Read my documents again', onclick: preview })]));
      });
    }
    function take(el, fromCamera) {
      el.onchange = function () {
        var files = Array.prototype.slice.call(el.files || []);
        el.value = '';
        if (files.length) add(files, fromCamera);
      };
    }
    take(camera, true);
    take(input, false);
    newDoc.onclick = function () { current = null; draw(); };
    kinds.forEach(function (k) { k.querySelector('input').onchange = function () { if (docs.length) changed(); }; });
    submit.onclick = function () {
      var form = chosen();
      if (!form) return;
      submit.disabled = true;
      api('POST', 'uploads', form).then(function (res) {
        state.uploaded = res.submitted;
        emit('doc_uploads_submitted', { uploadedDocumentSubmittedCount: res.submitted });
        transition('DOC_UPLOAD_SUCCESS', renderUploadSuccess);
      }, function (err) {
        submit.disabled = false;
        showMessage(userMessage(fail(err)));
      });
    };
    screen('Upload your documents', 'Send recent paystubs or W-2s instead. Take a picture of each page, or choose PDF, PNG or JPEG files of up to 10 MB.', [
      h('div', { 'class': 'choices', role: 'radiogroup', 'aria-label': 'Document type' }, kinds),
      holder, cameraPick, newDoc, filesPick, list, submit]);
    draw();
  }

  // payDay writes a YYYY-MM-DD date as people read it: "Nov 13, 2026".
  function payDay(date) {
    var d = new Date(date + 'T00:00:00Z');
    return isNaN(d) ? date : d.toLocaleDateString('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' });
  }

  function size(bytes) {
    return bytes < 1048576 ? Math.max(1, Math.round(bytes / 1024)) + ' KB' : (bytes / 1048576).toFixed(1) + ' MB';
  }

  function renderUploadSuccess() {
    var n = state.uploaded;
    screen('We received your documents', '', [checkIcon(),
      h('p', { 'class': 'outcome', id: 'outcome', text: n + (n === 1 ? ' document was' : ' documents were') + ' sent to ' + state.session.org_name + '.' }),
      h('button', { id: 'done', 'class': 'primary', text: 'Done', onclick: exit })]);
  }

  parts.renderUpload = renderUpload;
})();
