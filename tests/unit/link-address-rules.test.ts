import { describe, expect, test } from 'vitest'
import { checkedLinkUrl, isPublicAddress, LINK_TEXT } from '#app/models/ads/link-address-rules.ts'

describe('isPublicAddress', () => {
  test.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    // An IPv4-mapped form of a public address is that address.
    '::ffff:8.8.8.8',
  ])('%s is public', (address) => expect(isPublicAddress(address)).toBe(true))

  test.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared (CGNAT)'],
    ['100.127.255.254', 'shared (CGNAT)'],
    ['169.254.169.254', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'this network'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'IPv6 loopback'],
    ['[::1]', 'IPv6 loopback in brackets'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'IPv6 link-local with a zone'],
    ['fc00::1', 'IPv6 unique local'],
    ['fd12:3456::1', 'IPv6 unique local'],
    ['fd00:ec2::254', 'metadata (IPv6)'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, in hex'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['64:ff9b::a00:1', 'NAT64 of a private address'],
    ['2002:a00:1::', '6to4 of a private address'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['localhost', 'a name, not an address'],
    ['not-an-address', 'not an address'],
    ['', 'empty'],
  ])('%s is refused (%s)', (address) => expect(isPublicAddress(address)).toBe(false))
})

describe('checkedLinkUrl', () => {
  const problem = (value: string, allowedHosts?: string[]) => {
    const checked = checkedLinkUrl(value, { allowedHosts })
    return 'problem' in checked ? checked.problem : checked.url.href
  }

  test('an http(s) address on the usual ports is taken; a bare host is read as https', () => {
    expect(problem('https://events.example.com/jazz')).toBe('https://events.example.com/jazz')
    expect(problem('http://events.example.com:80/a.ics')).toBe('http://events.example.com/a.ics')
    expect(problem('https://events.example.com:443/')).toBe('https://events.example.com/')
    expect(problem('http://events.example.com:443/')).toBe('http://events.example.com:443/')
    expect(problem(' events.example.com/jazz ')).toBe('https://events.example.com/jazz')
  })

  test('other schemes, other ports, credentials and nonsense are refused with their reason', () => {
    expect(problem('ftp://example.com/')).toBe(LINK_TEXT.scheme)
    expect(problem('file:///etc/passwd')).toBe(LINK_TEXT.scheme)
    expect(problem('javascript:alert(1)')).toBe(LINK_TEXT.scheme)
    expect(problem('data:text/html,<p>x</p>')).toBe(LINK_TEXT.scheme)
    expect(problem('gopher://example.com:70/')).toBe(LINK_TEXT.scheme)
    expect(problem('https://example.com:8443/')).toBe(LINK_TEXT.port)
    expect(problem('http://example.com:22/')).toBe(LINK_TEXT.port)
    expect(problem('http://example.com:6379/')).toBe(LINK_TEXT.port)
    expect(problem('https://user:pw@example.com/')).toBe(LINK_TEXT.credentials)
    expect(problem('')).toBe(LINK_TEXT.notALink)
    expect(problem('http://')).toBe(LINK_TEXT.notALink)
  })

  test('an address written as the host is checked at once, in every spelling the URL reader accepts', () => {
    for (const value of [
      'http://127.0.0.1/',
      'http://127.1/',
      'http://0x7f000001/',
      'http://2130706433/',
      'http://017700000001/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[0:0:0:0:0:ffff:7f00:1]/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/',
      'http://10.0.0.1/',
      'http://0.0.0.0/',
      'http://[::]/',
    ])
      expect(problem(value), value).toBe(LINK_TEXT.privateAddress)
  })

  test('a host on the allow-list is taken whatever its port and address; no other host is', () => {
    expect(problem('http://127.0.0.1:4321/x', ['127.0.0.1'])).toBe('http://127.0.0.1:4321/x')
    expect(problem('http://LOCALHOST:4321/x', ['localhost'])).toBe('http://localhost:4321/x')
    expect(problem('http://127.0.0.2:4321/x', ['127.0.0.1'])).toBe(LINK_TEXT.port)
    expect(problem('http://10.0.0.1/', ['localhost'])).toBe(LINK_TEXT.privateAddress)
    // Not even an allowed host may use another scheme.
    expect(problem('ftp://localhost/', ['localhost'])).toBe(LINK_TEXT.scheme)
  })
})
