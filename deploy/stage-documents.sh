#!/usr/bin/env bash
# Stages the programs the documents reader runs (poppler's pdftotext and
# pdftoppm, tesseract with its English data, and the sh that bounds their
# memory) from this machine's Debian packages into ROOT, with every shared
# library they load, for the image variant that reads uploaded documents
# (deploy/build-image.sh --with-documents). It then runs each program in
# ROOT with chroot, so a library left out fails here, not in production.
# Usage: deploy/stage-documents.sh ROOT
set -euo pipefail
root="${1:?usage: stage-documents.sh ROOT}"
programs=(/bin/sh /usr/bin/pdftotext /usr/bin/pdftoppm /usr/bin/tesseract)
for p in "${programs[@]}"; do
    [ -x "$p" ] || { echo "stage-documents.sh: $p is missing: apt-get install poppler-utils tesseract-ocr tesseract-ocr-eng" >&2; exit 1; }
done
tessdata="$(dirname "$(ls /usr/share/tesseract-ocr/*/tessdata/eng.traineddata | head -n1)")"
[ -f "$tessdata/eng.traineddata" ] || { echo "stage-documents.sh: tesseract's English data is missing: apt-get install tesseract-ocr-eng" >&2; exit 1; }
copy() { mkdir -p "$root$(dirname "$1")" && cp -L "$1" "$root$1"; }
for p in "${programs[@]}"; do
    copy "$p"
    # ldd lists "name => /path (addr)" and the loader as "/path (addr)".
    ldd "$p" | awk '{for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i}' | while read -r lib; do copy "$lib"; done
done
mkdir -p "$root$tessdata"
cp "$tessdata/eng.traineddata" "$tessdata/osd.traineddata" "$root$tessdata/"
# tesseract's tsv output is a config file of its own.
cp -r "$tessdata/configs" "$tessdata/tessconfigs" "$root$tessdata/" 2>/dev/null || true
# pdftoppm renders pages (of scanned PDFs, whose text is a picture) with
# fontconfig: its configuration and a fallback font family, where present.
mkdir -p "$root/etc" && cp -rL /etc/fonts "$root/etc/"
for fonts in /usr/share/fonts/truetype/dejavu /usr/share/fonts/truetype/liberation; do
    [ -d "$fonts" ] && mkdir -p "$root$fonts" && cp -L "$fonts"/*.ttf "$root$fonts/"
done
mkdir -p "$root/tmp" && chmod 1777 "$root/tmp"
for check in "/bin/sh -c true" "/usr/bin/pdftotext -v" "/usr/bin/pdftoppm -v" "/usr/bin/tesseract --version" "/usr/bin/tesseract --list-langs"; do
    out="$(TESSDATA_PREFIX="$tessdata" chroot "$root" $check 2>&1)" || { echo "stage-documents.sh: '$check' does not run in the staged root:" >&2; echo "$out" >&2; exit 1; }
done
TESSDATA_PREFIX="$tessdata" chroot "$root" /usr/bin/tesseract --list-langs 2>&1 | grep -qx eng \
    || { echo "stage-documents.sh: tesseract in the staged root does not list eng" >&2; exit 1; }
echo "staged $(find "$root" -type f | wc -l) files ($(du -sh "$root" | cut -f1)) for the documents reader"
