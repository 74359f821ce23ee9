"""The control side: the regulator's grants, the controller's witness list and stubs, rulings
and their dispute windows."""
