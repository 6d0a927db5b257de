// Mirrors: published libraries appending several ids with $push.
const { c_conversations } = org.objects
const _id = c_conversations.insertOne({ c_title: 'push-array' }).execute()
c_conversations.updateOne({ _id }, { $push: { c_participants: [script.principal._id, _id] } }).execute()
return c_conversations.readOne({ _id }).execute().c_participants.length
