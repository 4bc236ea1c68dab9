/**
 * Named prepared statements for PGlite. `PGlite.query` parses and plans every statement anew, in six calls into the
 * WebAssembly backend; the app runs a few dozen statement texts over and over. Here each text is parsed once under a
 * name, and a run is one call: bind, describe, execute and sync in one message. PostgreSQL then plans as it does for
 * any prepared statement (plan_cache_mode: custom plans first, a generic plan once it is no dearer).
 *
 * A statement whose text holds PLANNED_WITH_VALUES is planned at every run with its values, as an unnamed statement
 * is (and as postgres.js runs every statement of the app's): for it, the best plan depends on the values too much
 * for one generic plan to serve them all.
 */
import { parse, protocol } from '@electric-sql/pglite'

const { serialize } = protocol
/** Statement texts kept prepared at once; the least recently used is closed beyond this. */
export const MAX_PREPARED_STATEMENTS = 256
/** "cached plan must not change result type": a table changed under a prepared statement; prepare it again. */
const PLAN_RESULT_CHANGED = '0A000'
/** The mark of a statement planned with its values at every run (a comment: PostgreSQL ignores it). */
export const PLANNED_WITH_VALUES = '/* planned with its values */'

function joined(parts) {
  const buffer = new Uint8Array(parts.reduce((total, part) => total + part.length, 0))
  let offset = 0
  for (const part of parts) {
    buffer.set(part, offset)
    offset += part.length
  }
  return buffer
}

/** Runs statements of `client` as named prepared statements; `query` has `PGlite.query`'s answer. */
export function preparedStatements(client, { parsers, max = MAX_PREPARED_STATEMENTS } = {}) {
  /**
   * PGlite's parsers with ours over them, merged once: given apart, `parseResults` merges them again for every
   * statement, a copy of some 300 entries that cost about 0.1 ms a run.
   */
  let merged
  const allParsers = () => (merged ??= { ...client.parsers, ...parsers })
  /** By statement text: its name and its parameters' type ids, most recently used last. */
  const statements = new Map()
  let nextName = 1

  async function prepare(sql) {
    const name = `s${nextName++}`
    const { messages } = await client.execProtocol(
      joined([
        serialize.parse({ name, text: sql, types: [] }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
    )
    const parameters = messages.find((message) => message.name === 'parameterDescription')
    const statement = {
      name,
      types: parameters?.dataTypeIDs ?? [],
      withValues: sql.includes(PLANNED_WITH_VALUES) ? sql : undefined,
    }
    statements.set(sql, statement)
    while (statements.size > max) {
      const [oldestSql, oldest] = statements.entries().next().value
      statements.delete(oldestSql)
      await client.execProtocol(joined([serialize.close({ type: 'S', name: oldest.name }), serialize.sync()]))
    }
    return statement
  }

  async function execute(statement, params, rowMode) {
    const values = params.map((value, index) => {
      if (value == null) return null
      const serializer = client.serializers[statement.types[index]]
      const text = serializer ? serializer(value) : value.toString()
      // PGlite writes every message into one shared buffer: a value it cannot write would leave half a message there,
      // and the next statement (another request's) would be sent garbled. Refuse it before anything is written.
      if (typeof text !== 'string' && !(text instanceof Uint8Array))
        throw new TypeError(
          `Parameter $${index + 1} cannot be sent as type ${statement.types[index]}: ${typeof value}`,
        )
      return text
    })
    const { messages } = await client.execProtocol(
      joined([
        // Parsed again as the unnamed statement, which is planned for these values (its types are known).
        ...(statement.withValues
          ? [serialize.parse({ name: '', text: statement.withValues, types: statement.types })]
          : []),
        serialize.bind({ statement: statement.withValues ? '' : statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
    )
    return parse.parseResults(messages, allParsers(), { rowMode })[0]
  }

  async function run(sql, params, rowMode) {
    let statement = statements.get(sql)
    if (statement) {
      statements.delete(sql)
      statements.set(sql, statement)
    } else statement = await prepare(sql)
    try {
      return await execute(statement, params, rowMode)
    } catch (error) {
      if (error?.code !== PLAN_RESULT_CHANGED) throw error
      statements.delete(sql)
      await client.execProtocol(
        joined([serialize.close({ type: 'S', name: statement.name }), serialize.sync()]),
      )
      return execute(await prepare(sql), params, rowMode)
    }
  }

  return {
    /** How many statement texts are prepared now. */
    get size() {
      return statements.size
    },
    /** Outside a transaction: waits for any open one, as `PGlite.query` does. */
    query(sql, params = [], { rowMode } = {}) {
      return client._runExclusiveTransaction(() => client._runExclusiveQuery(() => run(sql, params, rowMode)))
    },
    /** Inside the transaction that holds PGlite now (its owner calls this). */
    queryInTransaction(sql, params = [], { rowMode } = {}) {
      return client._runExclusiveQuery(() => run(sql, params, rowMode))
    },
  }
}
