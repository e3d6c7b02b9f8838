package reports

// AxisStep is axisStep, for the layout tests.
var AxisStep = axisStep

// CompressPages is compressPages, for its tests.
var CompressPages = compressPages

// Unhinted is unhinted, for its tests.
var Unhinted = unhinted
