// Mirrors: github:Medable/mdctl packages/mdctl-sandbox/sandbox.js echo().
script.exit(script.arguments)
