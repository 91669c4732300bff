/**
 * The roadway heading dial of the event detail (part 1 §2: shown when the roadway heading is a
 * number): a compass ring with an arrow turned by the heading, 0° pointing north.
 */
import { EVENTS_TEXT } from '../../domain/labels';
import { courseToCompass } from '../../domain/heading';

const SIZE = 56;
const CENTER = SIZE / 2;

export function HeadingDial({ degrees }: { degrees: number }) {
  const compass = courseToCompass(degrees);
  return (
    <span className="heading-dial">
      <svg
        width={SIZE}
        height={SIZE}
        viewBox={`0 0 ${SIZE} ${SIZE}`}
        role="img"
        aria-label={EVENTS_TEXT.headingDial(degrees)}
        data-testid="heading-dial"
      >
        <circle cx={CENTER} cy={CENTER} r={CENTER - 3} className="heading-dial-ring" />
        <text x={CENTER} y={11} textAnchor="middle" className="heading-dial-north">
          N
        </text>
        <g transform={`rotate(${degrees} ${CENTER} ${CENTER})`} data-testid="heading-dial-arrow">
          <path
            d={`M${CENTER} 12 L${CENTER + 7} ${CENTER + 12} L${CENTER} ${CENTER + 7} L${CENTER - 7} ${CENTER + 12} Z`}
            className="heading-dial-arrow"
          />
        </g>
      </svg>
      <span className="heading-dial-text">
        {degrees}°{compass ? ` ${compass}` : ''}
      </span>
    </span>
  );
}
