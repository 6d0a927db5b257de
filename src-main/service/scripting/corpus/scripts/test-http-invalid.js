// Mirrors: the original's sandbox tests of require('http') (an invalid url is refused).
const http = require('http')
try {
  http.get('https://')
} catch (err) {
  if (err.reason === 'Invalid url format.') return true
  throw err
}
throw new Error('invalidHost should cause an error.')
