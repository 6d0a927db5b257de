// Mirrors: the original's sandbox tests (require of a module that does not exist is kNotFound).
require('dne')
