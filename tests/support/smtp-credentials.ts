/** The login the test SMTP server (smtp-server.ts) asks for; a file of its own, so a config can read it cheaply. */
export const SMTP_USER = 'mailer'
export const SMTP_PASSWORD = 's3cret-smtp-pa55'
