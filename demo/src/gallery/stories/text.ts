/** Sample texts the stories share: ANSI styling as pi's theme.fg emits it, markup that must stay text, CJK. */

export const ESC = "\u001b";
export const fg = (rgb: [number, number, number], text: string) => `${ESC}[38;2;${rgb.join(";")}m${text}${ESC}[39m`;
export const accent = (text: string) => fg([138, 190, 183], text);
export const success = (text: string) => fg([181, 189, 104], text);
export const warning = (text: string) => `${ESC}[38;5;226m${text}${ESC}[39m`;
export const error = (text: string) => `${ESC}[31m${text}${ESC}[39m`;
export const bold = (text: string) => `${ESC}[1m${text}${ESC}[22m`;
export const italic = (text: string) => `${ESC}[3m${text}${ESC}[23m`;
export const strike = (text: string) => `${ESC}[9m${text}${ESC}[29m`;
export const link = (url: string, text: string) => `${ESC}]8;;${url}${ESC}\\${text}${ESC}]8;;${ESC}\\`;

export const MARKUP = `<img src=x onerror="alert('injected')"><script>alert(1)</script><b>not bold</b>`;

/** One option or line per line of a knob's text. */
export const lines = (text: string) => text.split("\n");
/** A knob's timeout in seconds; 0 means none. */
export const timeoutOf = (seconds: number) => (seconds > 0 ? { timeout: seconds * 1000 } : {});
