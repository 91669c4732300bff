/**
 * The replay's speed-over-time chart (beyond the spec: part 2 §3 points carry speed): uPlot, loaded
 * with the Replay tab, one series for the followed asset's runs (a gap between runs); its cursor
 * follows the replay clock. Times on the x axis are seconds since the replay's origin.
 */
import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { REPLAY_TEXT } from '../../domain/labels';

/** px */
export const SPEED_CHART_HEIGHT_PX = 120;

export interface SpeedSeries {
  /** Seconds since the origin; null values separate runs. */
  times: number[];
  speeds: (number | null)[];
}

export interface SpeedChartProps {
  series: SpeedSeries;
  origin: number;
  /** Seconds since the origin: where the cursor stands. */
  cursorS: number;
  timeZone: string | null;
  /** The line's CSS colour (the asset's). */
  color: string;
}

function clockLabel(ms: number, timeZone: string | null): string {
  try {
    return new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: timeZone ?? undefined }).format(ms);
  } catch {
    return new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' }).format(ms);
  }
}

export function SpeedChart({ series, origin, cursorS, timeZone, color }: SpeedChartProps) {
  const holder = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const cursor = useRef(cursorS);
  cursor.current = cursorS;

  useEffect(() => {
    const element = holder.current;
    if (!element) return undefined;
    let alive = true;
    let made: uPlot | null = null;
    void import('uplot')
      .then(({ default: UPlot }) => {
        if (!alive) return;
        const style = getComputedStyle(element);
        const ink = style.getPropertyValue('--ink-soft').trim() || 'gray';
        const grid = style.getPropertyValue('--line').trim() || 'lightgray';
        made = new UPlot(
          {
            width: Math.max(200, element.clientWidth),
            height: SPEED_CHART_HEIGHT_PX,
            legend: { show: false },
            cursor: { drag: { x: false, y: false }, points: { size: 8 } },
            scales: { x: { time: false } },
            axes: [
              {
                stroke: ink,
                grid: { stroke: grid, width: 1 },
                values: (_, splits) => splits.map((s) => clockLabel(origin + s * 1000, timeZone)),
              },
              { stroke: ink, grid: { stroke: grid, width: 1 }, size: 40 },
            ],
            series: [{}, { label: REPLAY_TEXT.chart, stroke: color, width: 2, spanGaps: false }],
          },
          [series.times, series.speeds],
          element,
        );
        chart.current = made;
      })
      .catch(() => undefined);
    return () => {
      alive = false;
      made?.destroy();
      chart.current = null;
    };
  }, [series, origin, timeZone, color]);

  useEffect(() => {
    const made = chart.current;
    if (!made) return;
    const left = made.valToPos(cursorS, 'x');
    if (Number.isFinite(left)) made.setCursor({ left, top: SPEED_CHART_HEIGHT_PX / 2 });
  }, [cursorS]);

  return <div ref={holder} className="speed-chart" role="img" aria-label={REPLAY_TEXT.chart} data-testid="speed-chart" />;
}
