/** Everything a complete build has, relative to its folder. */
export const OUTPUTS: readonly string[];
/** Why `outDir` needs building, or undefined when it is complete and newer than every source. */
export function staleness(outDir?: string): string | undefined;
export function build(outDir?: string): Promise<void>;
