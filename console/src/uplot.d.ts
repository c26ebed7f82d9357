// The charting library (uPlot), served by the service as /console/uplot.js from its
// package; its types are the package's own.
import uPlot from 'uplot';
export default uPlot;
