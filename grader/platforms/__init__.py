"""Where a class is graded: one machine grading a whole class folder (`classes`), and course
platforms that grade one container per submission: Gradescope's autograder bundle (`gradescope`)
and finding step files in what students upload (`uploads`). Instructors only: the student release
leaves this package out."""
