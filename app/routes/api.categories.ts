import { listCategories } from '#app/models/category.server.ts'

export async function loader() {
  return Response.json(await listCategories())
}
