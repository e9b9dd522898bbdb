import { useEffect, useRef } from 'react';
import 'uplot/dist/uPlot.min.css';

export interface InsightsChartProps {
  /** What the chart shows; the table next to it is its text alternative. */
  title: string;
  days: string[];
  series: { label: string; values: number[] }[];
}

const COLORS = ['#1d5c4a', '#a4262c', '#2f5fa7', '#b7791f', '#6b46c1', '#57606a'];

/**
 * A line chart of daily figures, drawn by uPlot in the browser (an island: the server renders the empty frame
 * and the table beside it carries the same figures). Hidden from assistive technology for that reason.
 */
export default function InsightsChart({ title, days, series }: InsightsChartProps) {
  const frame = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    let disposed = false;
    let plot: { destroy(): void; setSize(size: { width: number; height: number }): void } | null = null;
    let observer: ResizeObserver | null = null;
    void import('uplot').then(({ default: UPlot }) => {
      if (disposed) return;
      const x = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
      plot = new UPlot(
        {
          width: element.clientWidth || 600,
          height: 220,
          series: [
            {},
            ...series.map((each, index) => ({
              label: each.label,
              stroke: COLORS[index % COLORS.length],
              width: 2,
            })),
          ],
          axes: [{}, { size: 56 }],
          scales: { x: { time: true } },
          legend: { live: false },
        },
        [x, ...series.map((each) => each.values)],
        element,
      );
      observer = new ResizeObserver(() => plot?.setSize({ width: element.clientWidth || 600, height: 220 }));
      observer.observe(element);
      element.dataset.drawn = 'true';
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      plot?.destroy();
    };
  }, [days, series]);
  return <div ref={frame} className="insights-chart" aria-hidden="true" title={title} />;
}
