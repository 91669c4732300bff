/** The light-bar mark: red and blue lamps. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg className="logo" width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect x="2" y="11" width="28" height="10" rx="5" fill="#1b2433" />
      <rect x="4" y="13" width="12" height="6" rx="3" fill="#e53935" />
      <rect x="16" y="13" width="12" height="6" rx="3" fill="#1e88e5" />
    </svg>
  );
}
