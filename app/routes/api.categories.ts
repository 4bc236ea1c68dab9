import { listCategories } from '#app/models/ads/category.server.ts'

export async function loader() {
  return Response.json(await listCategories())
}
