// Type-checked by `npm test` (tsc --noEmit): the wrapper's public types as
// a caller uses them. Not run.
import { PaylineLink, usePaylineLink, type LinkSuccess } from '@payline/link-react';

export function Connect({ token }: { token: string }) {
  const { open, ready, error } = usePaylineLink({
    linkToken: token,
    onSuccess: (p: LinkSuccess) => console.log(p.accountId, p.params?.allocation?.value),
    onEvent: (name, payload) => {
      if (name === 'screen_transition') console.log(payload);
    },
    onExit: (p) => console.log(p.code ?? 'closed'),
  });
  // @ts-expect-error: linkToken is required
  usePaylineLink({});
  return (
    <div>
      <button disabled={!ready} onClick={open}>Connect</button>
      {error && <p>{error.message}</p>}
      <PaylineLink linkToken={token} serverUrl="https://payline.example.com" className="btn">Connect payroll</PaylineLink>
    </div>
  );
}
