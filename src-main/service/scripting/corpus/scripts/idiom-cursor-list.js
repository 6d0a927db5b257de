// Mirrors: the original's API tests (CTXAPI-501) and published scripts: cursor toList, count, locale, passive.
const { c_conversations } = org.objects
return [c_conversations.find().locale('en_US').passive().limit(1).toList().object, typeof c_conversations.find().count()]
