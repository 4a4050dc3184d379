export declare const HASH_FILE: string;
export declare function inputsHash(root?: string): string;
/** Build dist/ unless it is the compiled form of the current sources; true when it built. */
export function ensureBuild(who: string, root?: string): boolean;
