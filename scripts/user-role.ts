/**
 * Grants a staff role: `npm run user:role -- <email> <role>` (roles: admin, clinician). The user is created when
 * missing, so a role can be granted before the first sign-in. `--remove` takes the role away again.
 */
import { STAFF_ROLES } from '#app/constants.ts'
import { EnvError, getEnv } from '#app/services/platform/env.server.ts'
import { setUserRole } from '#app/models/accounts/user.server.ts'
import { AppError } from '#app/utils/app-error.ts'
import {
  DatabaseLockedError,
  openConfiguredDatabase,
  useDatabase as setCurrentDatabase,
} from '#db/client.server.ts'

const USAGE = `Usage: npm run user:role -- <email> <role> [--remove]
Roles: ${STAFF_ROLES.join(', ')}`

async function main(argv: string[]) {
  const remove = argv.includes('--remove')
  const [email, role, ...rest] = argv.filter((a) => a !== '--remove')
  if (!email || !role || rest.length > 0 || argv.includes('--help')) {
    console.error(USAGE)
    return 2
  }
  const handle = await openConfiguredDatabase(getEnv())
  setCurrentDatabase(handle)
  try {
    const { user, created, changed } = await setUserRole(email, role, { revoke: remove })
    const roles = user.roles.length ? user.roles.join(', ') : 'none'
    if (created) console.info(`Created user ${user.email} with role ${role}.`)
    else if (!changed)
      console.info(`${user.email} ${remove ? 'did not have' : 'already has'} the role ${role}.`)
    else
      console.info(`${remove ? 'Removed' : 'Granted'} role ${role} ${remove ? 'from' : 'to'} ${user.email}.`)
    console.info(`Roles of ${user.email}: ${roles}. The change applies to the user's next request.`)
    return 0
  } finally {
    setCurrentDatabase(undefined)
    await handle.close()
  }
}

try {
  process.exitCode = await main(process.argv.slice(2))
} catch (error) {
  const known = [DatabaseLockedError, EnvError, AppError]
  if (known.some((type) => error instanceof type)) {
    console.error((error as Error).message)
    if (error instanceof AppError && error.code === 'usage') console.error(USAGE)
  } else {
    console.error(error)
  }
  process.exitCode = 1
}
