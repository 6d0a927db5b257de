// Mirrors: the original's API tests, "Features - errCode": an unknown object is invalidArgument.object.
return org.objects.obviously_not_an_object.find().next()
