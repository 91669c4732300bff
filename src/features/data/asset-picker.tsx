/**
 * The export wizard's assets (part 2 §5 "Empty list texts: 'No Assets to select', 'No Assets
 * selected', 'No Assets Available'"): the organization's assets to choose from, searchable, and
 * the chosen ones; the field's message (a point export needs one) shows under the lists. The
 * list to choose from is virtualized (part 2 §9 "Lists over 20 options are virtualized").
 */
import { useId, useState, type ReactNode } from 'react';
import { VirtualRows, type RowComponentProps } from '../../app/section/list-frame';
import { DATA_TEXT, EXPORT_TEXT, requiredLabel, SECTION_TEXT } from '../../domain/labels';
import type { ExportAsset } from './calls';

const OPTION_HEIGHT = 36;
const VISIBLE_OPTIONS = 6;

interface OptionProps {
  options: ExportAsset[];
  onPick(id: string): void;
}

function AssetOption({ index, style, ariaAttributes, options, onPick }: RowComponentProps<OptionProps>) {
  const asset = options[index]!;
  return (
    <div style={style} {...ariaAttributes} className="asset-option">
      <button type="button" className="asset-option-button" onClick={() => onPick(asset.id)}>
        {asset.name}
      </button>
    </div>
  );
}

export function ExportAssetPicker({
  assets,
  loading,
  selected,
  required,
  describedBy,
  onChange,
  children,
}: {
  /** null while loading or when the call failed. */
  assets: ExportAsset[] | null;
  loading: boolean;
  selected: string[];
  required: boolean;
  describedBy: string | undefined;
  onChange(ids: string[]): void;
  /** The field's message. */
  children?: ReactNode;
}) {
  const id = useId();
  const [search, setSearch] = useState('');
  const all = assets ?? [];
  const chosen = new Set(selected);
  const term = search.trim().toLowerCase();
  const options = all.filter((asset) => !chosen.has(asset.id) && (!term || asset.name.toLowerCase().includes(term)));
  const picked = selected.map((assetId) => all.find((asset) => asset.id === assetId) ?? { id: assetId, name: assetId });
  return (
    <fieldset className="wizard-fieldset export-asset-picker" aria-describedby={describedBy}>
      <legend>{required ? requiredLabel(DATA_TEXT.assets) : DATA_TEXT.assets}</legend>
      <label htmlFor={`${id}-search`} className="visually-hidden">
        {DATA_TEXT.assetSearch}
      </label>
      <input
        id={`${id}-search`}
        type="search"
        placeholder={DATA_TEXT.assetSearch}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      {loading ? (
        <p className="data-muted">{SECTION_TEXT.loading}</p>
      ) : all.length === 0 ? (
        <p className="data-muted">{EXPORT_TEXT.noAssetsAvailable}</p>
      ) : options.length === 0 ? (
        <p className="data-muted">{EXPORT_TEXT.noAssetsToSelect}</p>
      ) : (
        <div className="asset-options" style={{ height: Math.min(options.length, VISIBLE_OPTIONS) * OPTION_HEIGHT }}>
          <VirtualRows
            label={DATA_TEXT.assets}
            rowComponent={AssetOption}
            rowCount={options.length}
            rowHeight={OPTION_HEIGHT}
            rowProps={{ options, onPick: (assetId: string) => onChange([...selected, assetId]) }}
          />
        </div>
      )}
      <p className="asset-picked-title">{DATA_TEXT.selectedAssets}</p>
      {picked.length === 0 ? (
        <p className="data-muted">{EXPORT_TEXT.noAssetsSelected}</p>
      ) : (
        <ul className="asset-picked" aria-label={DATA_TEXT.selectedAssets}>
          {picked.map((asset) => (
            <li key={asset.id}>
              <span>{asset.name}</span>
              <button
                type="button"
                className="asset-remove"
                aria-label={`${DATA_TEXT.remove} ${asset.name}`}
                onClick={() => onChange(selected.filter((x) => x !== asset.id))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {children}
    </fieldset>
  );
}
