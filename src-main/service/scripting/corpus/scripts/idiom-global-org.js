// Mirrors: ingestTransform.js (mdctl axon-tools) reading definitions through global.org.
const { org: { objects: { object } } } = global
const cursor = object.find({ name: 'c_conversation' }).skipAcl().grant('read').paths('properties.name')
if (!cursor.hasNext()) return null
return cursor.next().properties.map(({ name }) => name)
