// Mirrors: the constants library the eConsent routes import.
export default { KEYS: { PUBLISH: 'publish_' } }
