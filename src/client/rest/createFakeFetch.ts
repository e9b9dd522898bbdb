/** A request the fake fetch received, with headers as a plain object (names as sent). */
export interface FakeCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

export type FakeAnswer = (call: FakeCall) => Response | Promise<Response>;

/**
 * A stand-in for the platform's fetch in the REST client's unit tests: records every call and answers with
 * what the test's function returns (or throws, which is how a network failure looks).
 */
export function createFakeFetch(answer: FakeAnswer) {
  const calls: FakeCall[] = [];
  const fakeFetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const call: FakeCall = {
      url: String(input),
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string> | undefined) },
      body: typeof init.body === 'string' ? parseJsonOrKeep(init.body) : init.body,
    };
    calls.push(call);
    return answer(call);
  };
  return { fetch: fakeFetch as typeof fetch, calls };
}

export function json(
  body: unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'Content-Type': 'application/json', ...init.headers },
  });
}

function parseJsonOrKeep(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
