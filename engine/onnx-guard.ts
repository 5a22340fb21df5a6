import { readFileSync } from 'node:fs';

/**
 * onnxruntime-node 1.30 walks the process command line (/proc/self/cmdline) recursively while it
 * creates its environment; with a command line longer than about 29 KB (measured: 29,600 bytes of
 * file paths crash, 14,800 bytes work) that recursion overflows the native stack and the whole
 * process dies with SIGSEGV (exit status 139) and no output: a batch of ~400 image paths on argv
 * took the engine CLI down this way. JavaScript cannot catch a native stack overflow, so every
 * loader of an ONNX model checks the command line first and refuses with a clear error well below
 * the crash point. Batch callers hand file lists over stdin or `--files-from`, never argv.
 */
export const MAX_ONNX_COMMAND_LINE_BYTES = 16 * 1024;

/** Bytes of this process's command line as the kernel holds it (argv joined by NULs). */
export function commandLineBytes(): number {
  try {
    return readFileSync('/proc/self/cmdline').length;
  } catch {
    // Not Linux (no procfs): estimate from what Node knows, same NUL-joined layout.
    return [process.execPath, ...process.execArgv, ...process.argv.slice(1)].reduce((n, a) => n + Buffer.byteLength(a) + 1, 0);
  }
}

/** Null when ONNX Runtime may be started in this process, else the reason it must not be. */
export function onnxCommandLineProblem(limit = MAX_ONNX_COMMAND_LINE_BYTES): string | null {
  const bytes = commandLineBytes();
  if (bytes <= limit) return null;
  return `process command line is ${bytes} bytes (> ${limit}): onnxruntime-node overflows its stack on long command lines; pass file lists via stdin or --files-from instead of argv`;
}
