/**
 * Images attached to the prompt, as pi takes them: `ImageContent {type: "image", data: base64, mimeType}` in the
 * `images` of prompt, steer and follow_up. Only the formats pi's models read are accepted; each file is checked
 * against the size limit before it is read, so a file over it is never read nor sent.
 */

/** pi's `ImageContent` (a type, not an interface, so that it fits the command schema's open object). */
export type ImageContent = {
  type: "image";
  /** The bytes, base64. */
  data: string;
  mimeType: string;
};

/** One attached image: what goes to pi, its name, and the object URL of its thumbnail (revoked when it goes). */
export interface Attachment {
  readonly name: string;
  readonly url: string;
  readonly image: ImageContent;
}

export const IMAGE_TYPES: readonly string[] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/** Why a file was refused; the string key and its values. */
export type Refusal = { key: "notAnImage" | "imageTooLarge" | "tooManyImages"; name: string };

/** Whether `file` may be attached beside `count` others; the refusal otherwise. */
export function refusal(file: File, count: number, maxBytes: number, maxCount: number): Refusal | undefined {
  const name = file.name || file.type;
  if (!IMAGE_TYPES.includes(file.type)) return { key: "notAnImage", name };
  if (file.size > maxBytes) return { key: "imageTooLarge", name };
  if (count >= maxCount) return { key: "tooManyImages", name };
  return undefined;
}

/** Reads `file` into an attachment. */
export async function attach(file: File): Promise<Attachment> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  // In slices: one call with every byte as an argument overflows the stack for a large image.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return {
    name: file.name || file.type,
    url: URL.createObjectURL(file),
    image: { type: "image", data: btoa(binary), mimeType: file.type },
  };
}

/** "5 MB" in the page's language. */
export function formatBytes(bytes: number, lang: string): string {
  const mb = bytes / (1024 * 1024);
  try {
    return new Intl.NumberFormat(lang || undefined, {
      style: "unit",
      unit: "megabyte",
      maximumFractionDigits: 1,
    }).format(mb);
  } catch {
    return `${mb.toFixed(1)} MB`;
  }
}
