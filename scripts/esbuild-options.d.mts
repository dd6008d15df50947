import type { BuildOptions } from 'esbuild';
export declare const externalPackages: string[];
export declare const bundleOptions: BuildOptions;
export declare const workerEntryPoints: Record<string, string>;
