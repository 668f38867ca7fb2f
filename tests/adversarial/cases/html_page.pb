  
<html><body>Not Found</body></html>