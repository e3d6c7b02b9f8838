package reports

// AxisStep is axisStep, for the layout tests.
var AxisStep = axisStep

// CompressPages takes an uncompressed document of fpdf's apart,
// compresses its page streams and writes it, as every document is
// finished, for pdfFile's tests.
func CompressPages(pdf []byte) ([]byte, error) {
	f, err := parsePDF(pdf)
	if err != nil {
		return nil, err
	}
	if err := f.compressStreams(); err != nil {
		return nil, err
	}
	return f.bytes(), nil
}

// Unhinted is unhinted, for its tests.
var Unhinted = unhinted
