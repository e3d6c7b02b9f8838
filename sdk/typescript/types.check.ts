// Type-checked by `npm test` (tsc --noEmit): the surface a TypeScript
// caller sees, so a wrong declaration fails the build. Not run.
import { createClient, PaylineError, verifyWebhook, type components, type ListItem } from '@payline/sdk';

export async function walkthrough(secret: string): Promise<void> {
  const client = createClient('http://127.0.0.1:8080', secret);
  const { data: token } = await client.POST('/link_tokens', {
    body: { org_name: 'Acme Bank', end_user_id: 'user-1', required_jobs: ['paystubs'] },
  });
  const id: string | undefined = token?.data.id;
  for await (const stub of client.paginate('/accounts/{account_id}/paystubs', { params: { path: { account_id: 'a' }, query: { limit: 5 } } })) {
    const cents: number = stub.gross_pay_amount;
    const item: ListItem<'/accounts/{account_id}/paystubs'> = stub;
    void cents, item;
  }
  // @ts-expect-error: the path parameter is required
  await client.GET('/accounts/{account_id}', {});
  // @ts-expect-error: cursor is the iterator's to set
  client.paginate('/employers', { params: { query: { cursor: 'x' } } });
  const e: unknown = null;
  if (e instanceof PaylineError) {
    const why: string = `${e.status} ${e.type} ${e.code} ${e.requestId}`;
    void why;
  }
  const stub: components['schemas']['Paystub'] | undefined = undefined;
  await verifyWebhook(secret, new Headers(), '{}');
  void id, stub;
}
