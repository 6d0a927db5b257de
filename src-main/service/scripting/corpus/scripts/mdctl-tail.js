// Mirrors: github:Medable/mdctl packages/mdctl-cli/tasks/tail.js (the script it posts to the runner).
return sys.tail('console')
