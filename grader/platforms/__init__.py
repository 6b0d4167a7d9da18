"""Course platforms that grade a class one container per submission: Gradescope's autograder
bundle (`gradescope`) and finding step files in what students upload (`uploads`)."""
