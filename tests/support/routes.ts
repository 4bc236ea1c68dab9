import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'

const BASE = 'http://localhost'

type Handler<A> = (args: A) => unknown

/** Calls a loader or action as Remix would, and returns what it gave back or threw, as a Response. */
export async function callRoute(
  handler: Handler<LoaderFunctionArgs> | Handler<ActionFunctionArgs>,
  path: string,
  { params = {}, ...init }: RequestInit & { params?: Record<string, string> } = {},
): Promise<Response> {
  const request = new Request(new URL(path, BASE), init)
  try {
    const result = await handler({ request, params, context: {} } as LoaderFunctionArgs)
    return toResponse(result)
  } catch (thrown) {
    return toResponse(thrown)
  }
}

function toResponse(value: unknown): Response {
  if (value instanceof Response) return value
  if (isDataWithResponseInit(value)) {
    return Response.json(value.data, { status: value.init?.status ?? 200, headers: value.init?.headers })
  }
  if (value instanceof Error) throw value
  return Response.json(value ?? null)
}

function isDataWithResponseInit(value: unknown): value is { data: unknown; init: ResponseInit | null } {
  return (
    typeof value === 'object' &&
    value !== null &&
    'type' in value &&
    (value as { type: unknown }).type === 'DataWithResponseInit'
  )
}
