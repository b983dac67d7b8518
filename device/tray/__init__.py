"""The tray: the camera loop (:mod:`.loop`, :mod:`.settle`), the one dispatcher of settled
frames (:mod:`.dispatch`), its default readers (:mod:`.readers`), the one matcher of a
reading to a waiting step (:mod:`.match`) and its problems as data (:mod:`.problems`)."""
