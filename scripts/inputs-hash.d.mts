export declare const HASH_FILE: string;
export declare function inputsHash(): string;
