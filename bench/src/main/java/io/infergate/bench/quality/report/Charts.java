package io.infergate.bench.quality.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogarithmicAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import io.infergate.bench.quality.report.ResultsJson.RateResults;

/** The report's PNG charts, drawn with JFreeChart (headless). */
final class Charts {

	private static final int WIDTH = 900;

	private static final int HEIGHT = 560;

	/** Points drawn per CDF line at most; the CDF is sampled evenly by rank. */
	private static final int CDF_POINTS = 400;

	private static final Color[] PALETTE = { new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c),
			new Color(0xd62728), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f),
			new Color(0xbcbd22), new Color(0x17becf) };

	private Charts() {
	}

	/** CDF of time to first token per policy, on a logarithmic time axis. */
	static void ttftCdf(File file, String title, Map<String, double[]> sortedTtftMillisByPolicy) throws IOException {
		XYSeriesCollection dataset = new XYSeriesCollection();
		for (Map.Entry<String, double[]> entry : sortedTtftMillisByPolicy.entrySet()) {
			double[] values = entry.getValue();
			XYSeries series = new XYSeries(entry.getKey(), false, true);
			int n = values.length;
			int step = Math.max(1, n / CDF_POINTS);
			for (int i = 0; i < n; i += step) {
				series.add(Math.max(values[i], 0.01), (i + 1) / (double) n);
			}
			if (n > 0) {
				series.add(Math.max(values[n - 1], 0.01), 1.0);
			}
			dataset.addSeries(series);
		}
		JFreeChart chart = ChartFactory.createXYLineChart(title, "time to first token (ms, log scale)",
				"fraction of requests", dataset, PlotOrientation.VERTICAL, true, false, false);
		XYPlot plot = chart.getXYPlot();
		LogarithmicAxis timeAxis = new LogarithmicAxis("time to first token (ms, log scale)");
		timeAxis.setStrictValuesFlag(false);
		timeAxis.setAutoRangeNextLogFlag(true);
		plot.setDomainAxis(timeAxis);
		((NumberAxis) plot.getRangeAxis()).setRange(0, 1.0);
		style(plot, dataset.getSeriesCount(), false);
		ChartUtils.saveChartAsPNG(file, chart, WIDTH, HEIGHT);
	}

	/** One figure of every policy against the offered rate, one line per policy. */
	static void againstRate(File file, String title, String valueLabel, List<RateResults> rates,
			ToDoubleFunction<Figures> value) throws IOException {
		against(file, title, "offered rate (requests/s)", valueLabel,
				rates.stream().map(RateResults::ratePerSecond).toList(),
				rates.stream().map(RateResults::policies).toList(), value);
	}

	/**
	 * One figure of every policy against a varied setting, one line per policy.
	 * @param xs the setting's values, in order
	 * @param figures the policies' figures at each value of {@code xs}
	 */
	static void against(File file, String title, String xLabel, String valueLabel, List<? extends Number> xs,
			List<Map<String, Figures>> figures, ToDoubleFunction<Figures> value) throws IOException {
		XYSeriesCollection dataset = new XYSeriesCollection();
		for (String policy : figures.get(0).keySet()) {
			XYSeries series = new XYSeries(policy, true, true);
			for (int i = 0; i < xs.size(); i++) {
				double y = value.applyAsDouble(figures.get(i).get(policy));
				if (!Double.isNaN(y)) {
					series.add(xs.get(i).doubleValue(), y);
				}
			}
			dataset.addSeries(series);
		}
		JFreeChart chart = ChartFactory.createXYLineChart(title, xLabel, valueLabel, dataset,
				PlotOrientation.VERTICAL, true, false, false);
		style(chart.getXYPlot(), dataset.getSeriesCount(), true);
		ChartUtils.saveChartAsPNG(file, chart, WIDTH, HEIGHT);
	}

	private static void style(XYPlot plot, int seriesCount, boolean shapes) {
		plot.setBackgroundPaint(Color.WHITE);
		plot.setDomainGridlinePaint(new Color(0xdddddd));
		plot.setRangeGridlinePaint(new Color(0xdddddd));
		XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, shapes);
		for (int i = 0; i < seriesCount; i++) {
			renderer.setSeriesPaint(i, PALETTE[i % PALETTE.length]);
			renderer.setSeriesStroke(i, new BasicStroke(2f));
		}
		plot.setRenderer(renderer);
	}
}
