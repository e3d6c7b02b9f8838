package main

import (
	"fmt"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"time"
)

func pngSize(path string) (int, int) {
	f, err := os.Open(path)
	must(err)
	defer f.Close()
	c, err := png.DecodeConfig(f)
	must(err)
	return c.Width, c.Height
}

func readTmp(name string) []byte {
	b, err := os.ReadFile(tmp(name))
	must(err)
	return b
}

// photo makes a phone photo (JPEG) of a PDF's first page: the page at dpi
// on a table, turned and in perspective, lit unevenly with a shadow across
// it, a little blurred and noisy.
func photo(pdf []byte, dpi int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 99))
	page := rasterize(pdf, dpi, dpi, false)[0]
	w, h := pngSize(page)
	border := dpi * 9 / 10
	W, H := float64(w+2*border), float64(h+2*border)
	tables := []string{"#6b563f", "#4a4f57", "#8a7a66", "#3d3a36", "#a39585"}
	bg := tables[r.IntN(len(tables))]
	angle := (1 + 3*r.Float64()) * math.Pi / 180
	if r.IntN(2) == 0 {
		angle = -angle
	}
	cx, cy := W/2, H/2
	tilt := 0.015 + 0.03*r.Float64() // the far edge looks shorter
	src := [][2]float64{{float64(border), float64(border)}, {float64(border + w), float64(border)}, {float64(border + w), float64(border + h)}, {float64(border), float64(border + h)}}
	var pts []string
	for i, p := range src {
		x, y := p[0], p[1]
		if i < 2 { // top edge pulled in
			if i == 0 {
				x += tilt * float64(w)
			} else {
				x -= tilt * float64(w)
			}
			y += tilt * float64(h) * 0.5
		}
		x += (r.Float64() - 0.5) * 0.01 * float64(w)
		y += (r.Float64() - 0.5) * 0.01 * float64(h)
		dx, dy := x-cx, y-cy
		rx := cx + dx*math.Cos(angle) - dy*math.Sin(angle)
		ry := cy + dx*math.Sin(angle) + dy*math.Cos(angle)
		pts = append(pts, fmt.Sprintf("%.1f,%.1f %.1f,%.1f", p[0], p[1], rx, ry))
	}
	// the shadow of a hand or phone across one side
	// drawn at a tenth of the size, blurred there, and scaled up: soft and cheap
	w10, h10 := W/10, H/10
	sx := int(w10 * (0.55 + 0.3*r.Float64()))
	shadow := fmt.Sprintf("polygon %d,0 %d,0 %d,%d %d,%d", sx, int(w10), int(w10), int(h10), sx-int(w10*0.25), int(h10))
	if r.IntN(2) == 0 {
		shadow = fmt.Sprintf("polygon 0,%d %d,%d %d,%d 0,%d", int(h10*0.7), int(w10), int(h10*0.85), int(w10), int(h10), int(h10))
	}
	light := fmt.Sprintf("%d,%d white %d,%d gray%d", int(W*r.Float64()), 0, int(W*r.Float64()), int(H), 62+r.IntN(15))
	out := tmp("photo.jpg")
	magick(page, "-fill", "#efe9dc", "-colorize", "7%", "-bordercolor", bg, "-border", fmt.Sprint(border),
		"-virtual-pixel", "background", "-background", bg, "-distort", "Perspective", strings.Join(pts, "  "),
		"(", "+clone", "-sparse-color", "Barycentric", light, ")", "-compose", "Multiply", "-composite",
		"(", "-size", fmt.Sprintf("%dx%d", int(w10), int(h10)), "xc:white", "-fill", "gray58", "-draw", shadow, "-blur", fmt.Sprintf("0x%d", max(2, dpi/40)),
		"-resize", fmt.Sprintf("%dx%d!", int(W), int(H)), ")",
		"-compose", "Multiply", "-composite",
		"-blur", fmt.Sprintf("0x%.2f", 0.6+0.5*r.Float64()), "-seed", fmt.Sprint(seed%100000), "-attenuate", "0.35", "+noise", "Gaussian",
		"-strip", "-sampling-factor", "2x2", "-quality", "62", out)
	return readTmp("photo.jpg")
}

// scan makes a flatbed scan of a PDF's first page: gray, barely turned,
// a little soft, with the scanner's levels. ext is png or jpg.
func scan(pdf []byte, dpi int, seed uint64, ext string) []byte {
	r := rand.New(rand.NewPCG(seed, 98))
	page := rasterize(pdf, dpi, dpi, true)[0]
	angle := (0.2 + 0.8*r.Float64()) * float64(1-2*r.IntN(2))
	out := tmp("scan." + ext)
	args := []string{page, "-background", "white", "-rotate", fmt.Sprintf("%.2f", angle), "+repage", "-gravity", "center",
		"-blur", "0x0.6", "-level", "6%,94%", "-seed", fmt.Sprint(seed % 100000), "-attenuate", "0.15", "+noise", "Gaussian"}
	if ext == "png" {
		args = append(args, "-posterize", "12", "-define", "png:compression-level=9", "-strip", out)
	} else {
		args = append(args, "-strip", "-quality", "55", out)
	}
	magick(args...)
	return readTmp("scan." + ext)
}

// scanPDF puts a scan of each page in an image-only PDF: gray JPEG, or
// black and white (Group 4) as office scanners do in their B/W mode.
func scanPDF(pdf []byte, dpi int, seed uint64, bw bool, created time.Time) []byte {
	r := rand.New(rand.NewPCG(seed, 97))
	var pages []pdfImage
	for i, page := range rasterize(pdf, dpi, dpi, true) {
		angle := (0.15 + 0.6*r.Float64()) * float64(1-2*r.IntN(2))
		if bw {
			out := tmp("scanpage.tif")
			magick(page, "-background", "white", "-rotate", fmt.Sprintf("%.2f", angle), "+repage", "-blur", "0x0.5", "-threshold", "58%",
				"-seed", fmt.Sprint(seed%100000+uint64(i)), "-type", "bilevel", "-compress", "Group4", "-define", "tiff:rows-per-strip=100000", "-strip", out)
			data, w, h := g4(readTmp("scanpage.tif"))
			pages = append(pages, pdfImage{data: data, filter: "CCITTFaxDecode", w: w, h: h, mono: true, wPt: float64(w) * 72 / float64(dpi), hPt: float64(h) * 72 / float64(dpi)})
			continue
		}
		out := tmp("scanpage.jpg")
		magick(page, "-background", "white", "-rotate", fmt.Sprintf("%.2f", angle), "+repage", "-blur", "0x0.5", "-level", "5%,95%",
			"-seed", fmt.Sprint(seed%100000+uint64(i)), "-attenuate", "0.1", "+noise", "Gaussian", "-strip", "-quality", "45", out)
		w, h := jpegSize(tmp("scanpage.jpg"))
		pages = append(pages, pdfImage{data: readTmp("scanpage.jpg"), filter: "DCTDecode", w: w, h: h, gray: true, wPt: float64(w) * 72 / float64(dpi), hPt: float64(h) * 72 / float64(dpi)})
	}
	return imagePDF(pages, "Scan2PDF 3.1 (MFP-4830)", created)
}

// fax makes a received fax: 1-bit at 204 × ry dpi (196 fine, 98 standard),
// a header line from the sending machine, in a PDF as Group 4.
func fax(pdf []byte, ry int, seed uint64, header string, created time.Time) []byte {
	r := rand.New(rand.NewPCG(seed, 96))
	var pages []pdfImage
	all := rasterize(pdf, 204, ry, true)
	for i, page := range all {
		angle := (0.3 + 0.9*r.Float64()) * float64(1-2*r.IntN(2))
		out := tmp("fax.tif")
		fh := 9 * ry / 98
		magick(page, "-background", "white", "-rotate", fmt.Sprintf("%.2f", angle), "+repage", "-gravity", "NorthWest",
			"-font", "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", "-pointsize", fmt.Sprint(fh), "-fill", "black",
			"-annotate", fmt.Sprintf("+40+%d", 4*ry/98), fmt.Sprintf("%s   P.%d/%d", header, i+1, len(all)),
			"-blur", "0x0.7", "-threshold", "62%", "-seed", fmt.Sprint(seed%100000), "-attenuate", "0.02", "+noise", "Impulse",
			"-threshold", "50%", "-type", "bilevel", "-compress", "Group4", "-define", "tiff:rows-per-strip=100000", "-strip", out)
		data, w, h := g4(readTmp("fax.tif"))
		pages = append(pages, pdfImage{data: data, filter: "CCITTFaxDecode", w: w, h: h, mono: true, wPt: float64(w) * 72 / 204, hPt: float64(h) * 72 / float64(ry)})
	}
	return imagePDF(pages, "FaxServer 7.2 Inbound", created)
}

func jpegSize(path string) (int, int) {
	f, err := os.Open(path)
	must(err)
	defer f.Close()
	b := make([]byte, 1<<16)
	n, _ := f.Read(b)
	b = b[:n]
	for i := 2; i+9 < len(b); {
		if b[i] != 0xFF {
			i++
			continue
		}
		m := b[i+1]
		l := int(b[i+2])<<8 | int(b[i+3])
		if m >= 0xC0 && m <= 0xC2 {
			return int(b[i+7])<<8 | int(b[i+8]), int(b[i+5])<<8 | int(b[i+6])
		}
		i += 2 + l
	}
	panic("no JPEG size")
}
