// Types of bench/cli-inputs.mjs (test/fuzz/fix-groups.test.ts uses its generators at a small size).
export function writeFleet(dir: string, n: number): number;
export function streamText(n: number): string;
export function cloudInitText(n: number): string;
export function cloudInitDropinsText(n: number): string;
export function writeText(path: string, text: string): void;
export function bigConfig(mib: number): string;
export function manyFindingsConfig(n: number): string;
export function ignitionText(config: string, base64: boolean): string;
