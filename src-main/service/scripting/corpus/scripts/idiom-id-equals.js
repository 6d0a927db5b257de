// Mirrors: published libraries comparing ids with _id.equals().
const first = org.objects.accounts.find({ _id: script.principal._id }).next()
return first._id.equals(script.principal._id)
