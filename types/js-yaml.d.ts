/**
 * The part of js-yaml 4.3.2 (the YAML parser electron-builder reads its configuration with, which
 * publishes no types) that tests/repository/packaging.test.ts uses.
 */
declare module 'js-yaml' {
  /** Parses one YAML document; what it holds is for the caller to check. */
  export function load(text: string): unknown
}
