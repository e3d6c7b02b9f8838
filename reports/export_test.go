package reports

// AxisStep is axisStep, for the layout tests.
var AxisStep = axisStep
