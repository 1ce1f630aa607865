// Who a request acts as. A request made through impersonation (`kubectl --as=…`) is the
// impersonated user's: the API server authorises and records it as that user, and that is
// who findings name (findings-contract.md, "Users").

export interface RequestUsers {
  user: string;
  impersonated?: string;
}

export function actorOf(f: RequestUsers): string {
  return f.impersonated ?? f.user;
}
