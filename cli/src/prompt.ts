/**
 * @module cli/prompt
 * Reading a secret (an API key, a secret variable's value) without putting it on the command
 * line, where shell history and `ps` would keep it: typed at a prompt with the echo off, or piped
 * into stdin (`… | platform login`).
 */

/** Reads piped stdin whole; a single trailing newline is dropped. */
async function readPiped(stdin: NodeJS.ReadStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/** Reads one line from the terminal without echoing it; Ctrl-C aborts. */
function readHidden(stdin: NodeJS.ReadStream, question: string): Promise<string> {
  process.stderr.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  let value = '';
  return new Promise((resolve, reject) => {
    const finish = (error?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (text: string) => {
      for (const ch of text) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === '\u0003') return finish(new Error('Cancelled'));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

/**
 * @example const key = await readSecret('Member API key: ');
 */
export async function readSecret(question: string, options: { trim?: boolean; stdin?: NodeJS.ReadStream } = {}): Promise<string> {
  const stdin = options.stdin ?? process.stdin;
  const value = stdin.isTTY ? await readHidden(stdin, question) : await readPiped(stdin);
  return options.trim === false ? value : value.trim();
}
