/**
 * What the portal waited for on the services while answering one request: each callService call's
 * start and end, kept by the request the call was made for (the Caller's request, the same object in
 * every middleware and loader of one answer). No AsyncLocalStorage: its hooks would cost every request
 * CPU even with the header off; the caller already names its request.
 *
 * The root middleware turns the record into `Server-Timing: svc;dur=…;desc="calls=N depth=D"` when
 * SERVER_TIMING=true. The token refresh at the start of a session and the provider's introspection
 * are not service calls (they go to the identity provider, not through callService) and are not counted.
 */

type Span = { start: number; end: number };

const traces = new WeakMap<Request, Span[]>();

/** Records one call for `request`; answers the function that marks its end. */
export function traceServiceCall(request: Request): () => void {
  const span = { start: performance.now(), end: Number.NaN };
  let spans = traces.get(request);
  if (!spans) traces.set(request, (spans = []));
  spans.push(span);
  return () => {
    span.end = performance.now();
  };
}

export type ServiceTiming = {
  calls: number;
  /** Wall time during which at least one call was under way, ms. */
  waitedMs: number;
  /** The longest chain of calls each started after the previous one ended: sequential round trips. */
  depth: number;
};

export function serviceTiming(request: Request): ServiceTiming {
  const now = performance.now();
  const spans = (traces.get(request) ?? []).map((s) => ({ start: s.start, end: Number.isNaN(s.end) ? now : s.end }));
  spans.sort((a, b) => a.start - b.start);
  let waitedMs = 0;
  let coveredUntil = -Infinity;
  const chain: number[] = [];
  spans.forEach((span, i) => {
    waitedMs += Math.max(0, span.end - Math.max(span.start, coveredUntil));
    coveredUntil = Math.max(coveredUntil, span.end);
    let longest = 0;
    for (let j = 0; j < i; j++) if (spans[j]!.end <= span.start) longest = Math.max(longest, chain[j]!);
    chain.push(longest + 1);
  });
  return { calls: spans.length, waitedMs, depth: Math.max(0, ...chain) };
}

/** The header's value: `svc;dur=12.3;desc="calls=3 depth=1"`. */
export function serverTimingHeader(request: Request): string {
  const { calls, waitedMs, depth } = serviceTiming(request);
  return `svc;dur=${waitedMs.toFixed(1)};desc="calls=${calls} depth=${depth}"`;
}
