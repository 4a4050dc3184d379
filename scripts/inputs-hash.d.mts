export declare const HASH_FILE: string;
export declare function inputsHash(): string;
/** Build dist/ unless it is the compiled form of the current sources; true when it built. */
export function ensureBuild(who: string): boolean;
