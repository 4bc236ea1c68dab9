/** Who is signed in, as the page chrome shows it. */
export interface Viewer {
  kind: 'business' | 'user'
  name: string
  roles: string[]
}
