// Mirrors: the original's API tests (CTXAPI-1766): insertMany with documents as arguments.
const { insertedIds } = org.objects.c_conversations.insertMany({ c_title: 'c1766-a' }, { c_title: 'c1766-b' }, { c_title: 'c1766-c' }).execute()
return [insertedIds.length, org.objects.c_conversations.find({ c_title: { $in: ['c1766-a', 'c1766-b', 'c1766-c'] } }).count()]
