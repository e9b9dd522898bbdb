// The `sourcebuster` package ships no types; the differential test uses only `init` and `get`.
declare module 'sourcebuster' {
  const sbjs: {
    init(prefs?: Record<string, unknown>): void;
    get: Record<string, Record<string, string>>;
  };
  export default sbjs;
}
