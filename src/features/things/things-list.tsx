/** Issue 7 (stub until written). */
import { SECTION_LABEL } from '../../domain/labels';

export function ThingsList() {
  return <h1 id="section-title">{SECTION_LABEL.things}</h1>;
}
