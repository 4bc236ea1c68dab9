/** A valid registration of the Blue Door Cafe, its fields as the form posts them; `overrides` change some. */
export function registrationFields(email: string, overrides: Partial<Record<string, string>> = {}) {
  return {
    businessName: 'Blue Door Cafe',
    businessAddress: '12 Main Street',
    businessCity: 'Springfield',
    businessState: 'IL',
    businessZip: '62701',
    businessPhone: '2175550123',
    businessFax: '',
    businessEmail: email,
    businessPassword: 'secret123',
    verifyPassword: 'secret123',
    businessContact: 'Pat Owner',
    businessWebsite: 'bluedoor.example',
    ...overrides,
  }
}
