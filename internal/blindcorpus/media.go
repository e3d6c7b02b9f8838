package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// Media: what becomes of a printed page.

// photo makes a phone photograph of a page: the sheet turned and in perspective on a table,
// uneven light, a shadow across it, slight blur and sensor noise, JPEG.
func photo(pdf []byte, pageNo int, r *rand.Rand, landscape bool) []byte {
	dpi := between(r, 150, 185)
	pg := raster(pdf, dpi, pageNo, false)
	w, h := imageSize(pg)
	mx := int(float64(w) * fbetween(r, 0.07, 0.13))
	my := int(float64(h) * fbetween(r, 0.05, 0.10))
	cw, ch := w+2*mx, h+2*my
	// corners of the sheet after rotation and perspective
	ang := fbetween(r, 1, 4) * pick(r, -1.0, 1.0) * math.Pi / 180
	cx, cy := float64(w)/2, float64(h)/2
	rot := func(x, y float64) (float64, float64) {
		dx, dy := x-cx, y-cy
		return cx + dx*math.Cos(ang) - dy*math.Sin(ang) + float64(mx), cy + dx*math.Sin(ang) + dy*math.Cos(ang) + float64(my)
	}
	// perspective: the far edge (top or bottom) narrower
	k := fbetween(r, 0.015, 0.045)
	top := r.IntN(2) == 0
	pts := [][2]float64{{0, 0}, {float64(w), 0}, {float64(w), float64(h)}, {0, float64(h)}}
	var dst [4][2]float64
	for i, p := range pts {
		x, y := p[0], p[1]
		shrink := 0.0
		if (top && i < 2) || (!top && i >= 2) {
			shrink = k * float64(w)
		}
		if i == 0 || i == 3 {
			x += shrink
		} else {
			x -= shrink
		}
		// small random jitter per corner
		x += fbetween(r, -0.006, 0.006) * float64(w)
		y += fbetween(r, -0.006, 0.006) * float64(h)
		dst[i][0], dst[i][1] = rot(x, y)
	}
	persp := ""
	for i, p := range pts {
		persp += fmt.Sprintf("%g,%g %.1f,%.1f ", p[0], p[1], dst[i][0], dst[i][1])
	}
	dark := pick(r, "#3d2b1e", "#4a4a46", "#5e4630", "#232a30", "#8f887c", "#2e2a26")
	light := pick(r, "#7a5a40", "#8c8c86", "#b08f6a", "#4a5560", "#c9c3b8", "#5a534c")
	paper := pick(r, "#f7f3ea", "#f3f1ee", "#faf6ee", "#eef0f2")
	// light: a broad gradient, darker on one side
	g1 := pick(r, "#ffffff-#b3ada4", "#fdfbf7-#a8a198", "#ffffff-#c2bcb2")
	gang := between(r, 0, 359)
	// shadow: a soft dark band across part of the page (a phone, a hand), drawn small and enlarged
	sw, shh := cw/8, ch/8
	sx := between(r, -sw/3, sw/2)
	sy := between(r, shh/3, shh)
	sh := fmt.Sprintf("polygon %d,%d %d,%d %d,%d %d,%d", sx, shh+10, sx+sw/2, sy, sx+sw, sy+shh/5, sx+sw/3, shh+10)
	shadow := pick(r, "#a8a8a8", "#b4b4b4", "#bebebe")
	blur := fbetween(r, 0.5, 1.0)
	noise := fbetween(r, 0.2, 0.4)
	grainAng := between(r, -20, 20)
	if r.IntN(2) == 0 {
		grainAng += 90
	}
	size := fmt.Sprintf("%dx%d", cw, ch)
	small := fmt.Sprintf("%dx%d", cw/4, ch/4)
	args := []string{
		"-seed", fmt.Sprint(r.IntN(100000)),
		"-size", small, "xc:gray50", "+noise", "Random", "-blur", "0x1", "-motion-blur", fmt.Sprintf("0x25+%d", grainAng),
		"-colorspace", "gray", "-auto-level", "-colorspace", "sRGB", "-type", "TrueColor", "+level-colors", dark + "," + light, "-resize", size + "!",
		"(", "{in0}", "-alpha", "off", "(", "+clone", "-fill", paper, "-colorize", "100", ")", "-compose", "multiply", "-composite",
		"-alpha", "set", "-virtual-pixel", "transparent", "-background", "none",
		"-define", "distort:viewport=" + size + "+0+0",
		"-distort", "Perspective", persp, ")",
		"-compose", "over", "-composite",
		"(", "-size", size, "gradient:" + g1, "-distort", "SRT", fmt.Sprint(gang), ")",
		"-compose", "multiply", "-composite",
		"(", "-size", fmt.Sprintf("%dx%d", sw, shh), "xc:white", "-fill", shadow, "-draw", sh, "-blur", "0x6", "-resize", size + "!", ")",
		"-compose", "multiply", "-composite",
		"-blur", fmt.Sprintf("0x%.2f", blur),
		"-attenuate", fmt.Sprintf("%.2f", noise), "+noise", "Gaussian",
		"-quality", fmt.Sprint(between(r, 62, 74)), "-sampling-factor", "2x2",
		"-density", fmt.Sprint(dpi), "-units", "PixelsPerInch",
	}
	_ = landscape
	return magick([][]byte{pg}, []string{"png"}, args, "jpg")
}

// scanImage makes a flatbed scan: a little skew, a grey scanner-lid edge, toned paper.
func scanImage(pdf []byte, pageNo, dpi int, r *rand.Rand, format string) []byte {
	pg := raster(pdf, dpi, pageNo, true)
	ang := fbetween(r, 0.2, 1.1) * pick(r, -1.0, 1.0)
	args := []string{"-seed", fmt.Sprint(r.IntN(100000)), "{in0}",
		"-background", "white", "-rotate", fmt.Sprintf("%.2f", ang), "+repage",
		"-gravity", "center", "-crop", fmt.Sprintf("%dx%d+0+0", int(8.5*float64(dpi)), int(11*float64(dpi))), "+repage",
	}
	w, h := imageSize(pg)
	if w > h {
		args[len(args)-2] = fmt.Sprintf("%dx%d+0+0", int(11*float64(dpi)), int(8.5*float64(dpi)))
	}
	edge := between(r, 6, 18)
	side := pick(r, "north", "east", "west")
	eg := fmt.Sprintf("%dx0", edge)
	if side == "north" {
		eg = fmt.Sprintf("0x%d", edge)
	}
	args = append(args, "-gravity", side, "-chop", eg, "-background", pick(r, "#3a3a3a", "#555555", "#202020"), "-splice", eg, "+repage", "-gravity", "center",
		"-level", fmt.Sprintf("%d%%,%d%%", between(r, 0, 6), between(r, 90, 98)))
	switch format {
	case "png":
		args = append(args, "-colorspace", "gray", "-depth", "8", "-colors", "32", "-define", "png:exclude-chunks=date,time")
		return magick([][]byte{pg}, []string{"png"}, args, "png")
	default:
		args = append(args, "-colorspace", "gray", "-attenuate", "0.2", "+noise", "Gaussian", "-quality", fmt.Sprint(between(r, 68, 78)),
			"-density", fmt.Sprint(dpi), "-units", "PixelsPerInch")
		return magick([][]byte{pg}, []string{"png"}, args, "jpg")
	}
}

// imagePDF makes a scanned PDF (page images only) at dpi.
func imagePDF(pdf []byte, pages int, dpi int, r *rand.Rand, when time.Time) []byte {
	var imgs []pdfImage
	for p := 1; p <= pages; p++ {
		pg := raster(pdf, dpi, p, true)
		w0, h0 := imageSize(pg)
		ang := fbetween(r, 0.15, 0.8) * pick(r, -1.0, 1.0)
		lo, hi := between(r, 2, 8), between(r, 88, 95)
		q := between(r, 38, 48)
		var jpg []byte
		for {
			jpg = magick([][]byte{pg}, []string{"png"}, []string{"{in0}",
				"-background", "white", "-rotate", fmt.Sprintf("%.2f", ang), "+repage", "-gravity", "center",
				"-crop", fmt.Sprintf("%dx%d+0+0", w0, h0), "+repage",
				"-level", fmt.Sprintf("%d%%,%d%%", lo, hi),
				"-colorspace", "gray", "-quality", fmt.Sprint(q), "-sampling-factor", "1x1"}, "jpg")
			if len(jpg) < 270000/pages || q <= 20 {
				break
			}
			q -= 5
		}
		w, h := imageSize(jpg)
		imgs = append(imgs, pdfImage{Data: jpg, W: w, H: h, Gray: true, PageW: float64(w) * 72 / float64(dpi), PageH: float64(h) * 72 / float64(dpi)})
	}
	prod := pick(r, "ScanSnap Manager #iX1600", "Canon iR-ADV C5550 PDF", "HP Digital Sending Software 5.0", "Xerox WorkCentre 7855", "KONICA MINOLTA bizhub C458")
	return imagesPDF(imgs, prod, prod, when)
}

// fax makes a faxed page: 1-bit at 204×196 (fine) or 204×98 (standard) dpi, a header line, CCITT G4 in a PDF.
func fax(pdf []byte, pages int, fine bool, header string, r *rand.Rand, when time.Time) []byte {
	ydpi := 98
	if fine {
		ydpi = 196
	}
	var imgs []pdfImage
	for p := 1; p <= pages; p++ {
		pg := rasterXY(pdf, 204, ydpi, p)
		w, h := imageSize(pg)
		hdr := fmt.Sprintf("%s   P.%d/%d", header, p, pages)
		pbm := magick([][]byte{pg}, []string{"png"}, []string{"-seed", fmt.Sprint(r.IntN(100000)), "{in0}",
			"-background", "white", "-rotate", fmt.Sprintf("%.2f", fbetween(r, -0.6, 0.6)), "+repage", "-gravity", "center", "-crop", fmt.Sprintf("%dx%d+0+0", w, h), "+repage",
			"-gravity", "northwest", "-fill", "black", "-font", "DejaVu-Sans-Mono", "-pointsize", fmt.Sprint(map[bool]int{true: 22, false: 11}[fine]),
			"-annotate", fmt.Sprintf("+%d+%d", 40, map[bool]int{true: 12, false: 6}[fine]), hdr,
			"-blur", map[bool]string{true: "0x0.5", false: "0x0.2"}[fine], "-attenuate", "0.012", "+noise", "Impulse",
			"-threshold", fmt.Sprintf("%d%%", map[bool]int{true: between(r, 58, 66), false: between(r, 70, 76)}[fine]), "-monochrome"}, "pbm")
		pw, ph, rows := pbmRows(pbm)
		imgs = append(imgs, pdfImage{Data: rows, W: pw, H: ph, Bits1: true, PageW: float64(pw) * 72 / 204, PageH: float64(ph) * 72 / float64(ydpi)})
	}
	prod := pick(r, "RightFax 16.6", "eFax Messenger", "OpenText Fax Server", "HylaFAX 7.0")
	raw := imagesPDF(imgs, prod, prod, when)
	return gsG4(raw, when, prod)
}

// scanCard scans a small card (a torn-off stub) laid on a letter-size flatbed.
func scanCard(pdf []byte, r *rand.Rand, format string) []byte {
	dpi := 200
	pg := raster(pdf, dpi, 1, true)
	ang := fbetween(r, -2.2, 2.2)
	x, y := between(r, 30, 140), between(r, 40, 200)
	args := []string{"-size", fmt.Sprintf("%dx%d", int(8.5*float64(dpi)), 11*dpi), "xc:#fbfbfb",
		"(", "{in0}", "-bordercolor", "#d8d8d8", "-border", "2", "-background", "#fbfbfb", "-rotate", fmt.Sprintf("%.2f", ang), ")",
		"-geometry", fmt.Sprintf("+%d+%d", x, y), "-composite",
		"-level", fmt.Sprintf("%d%%,%d%%", between(r, 0, 5), between(r, 92, 99)), "-colorspace", "gray"}
	if format == "png" {
		args = append(args, "-depth", "8", "-colors", "48", "-define", "png:exclude-chunks=date,time")
		return magick([][]byte{pg}, []string{"png"}, args, "png")
	}
	args = append(args, "-attenuate", "0.25", "+noise", "Gaussian", "-quality", fmt.Sprint(between(r, 70, 80)), "-density", "200", "-units", "PixelsPerInch")
	return magick([][]byte{pg}, []string{"png"}, args, "jpg")
}
